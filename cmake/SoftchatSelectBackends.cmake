# Discovers the backends (one folder each: backends/<dir>/backend.cmake), validates
# SOFTCHAT_BACKENDS against them, finds each selected backend's libraries, and records:
#   SOFTCHAT_BACKEND_SOURCES   sources to compile into the library
#   SOFTCHAT_BACKEND_LIBS      link targets
#   SOFTCHAT_PC_REQUIRES       pkg-config modules for Requires.private
#   SOFTCHAT_PC_LIBS_PRIVATE   flags for Libs.private (libraries without a .pc file)
#   SOFTCHAT_CONFIG_DEPS       find_dependency() lines for softchatConfig.cmake
#   SOFTCHAT_FIND_MODULES      find modules installed beside softchatConfig.cmake
#   SOFTCHAT_BACKEND_LIST      the selected registry names, in order (the first is the default)
#   SOFTCHAT_BACKEND_CAPS_C    C initialisers of the capabilities each selected backend declares
#                              (tests/crypto/backend_caps.h.in turns them into the suite's table)
# A missing library stops configure with the Debian package that provides it.
#
# The folder contract (docs/architecture.md, "The backend folder"): backend.cmake calls
#   softchat_backend_library(NAME WHAT .. DEBIAN .. FIND .. TARGET .. [VERSION_VAR ..]
#                            [FIND_MODULE ..] [PKG_CONFIG ..] [CONFIG_DEPENDENCY ..]
#                            [LIBS_PRIVATE ..])
#     once per library it introduces; `DEBIAN <package>` stands on a line of its own
#     (scripts/setup.sh reads those lines);
#   softchat_backend(NAME SOURCES .. LIBRARIES .. REQUIRED <cap>.. [OPTIONAL <cap> <reason>..]
#                    [MIN_VERSION <library> <version> <why>] [TESTS <test>..])
#     once per registry name it provides. Sources are relative to the folder; each test is a
#     cmocka program, tests/backends/<dir>/test_<test>.c, linked with the backend's libraries
#     (tests/backends/suite.cmake registers it as backend.<name>.<test>). Every
#     capability (sc_backend_cap_name) is declared REQUIRED or OPTIONAL; an optional one
#     carries the reason it may be missing (reasons are CMake strings: no semicolons).
# backends/secp256k1 is the curve adapter every table shares; it has no backend.cmake and is
# always compiled in (cmake/SoftchatSecp256k1.cmake builds or finds its library).

function(_softchat_missing what pkg)
  message(FATAL_ERROR "softchat: ${what} not found. On Debian/Ubuntu install it with:\n"
                      "  sudo apt-get install ${pkg}\n"
                      "(or run scripts/setup.sh), or drop it from SOFTCHAT_BACKENDS.")
endfunction()

# Declarations are kept in global properties: SOFTCHAT_LIB_<name>_<field> and
# SOFTCHAT_BACKEND_<name>_<field>, with the lists SOFTCHAT_LIBRARIES and SOFTCHAT_BACKENDS_KNOWN.
function(softchat_backend_library name)
  cmake_parse_arguments(L ""
    "WHAT;DEBIAN;TARGET;VERSION_VAR;FIND_MODULE;PKG_CONFIG;CONFIG_DEPENDENCY;LIBS_PRIVATE"
    "FIND" ${ARGN})
  get_property(known GLOBAL PROPERTY SOFTCHAT_LIBRARIES)
  if(name IN_LIST known)
    get_property(where GLOBAL PROPERTY SOFTCHAT_LIB_${name}_DIR)
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: library '${name}' is already declared "
                        "by ${where}/backend.cmake; name it in LIBRARIES instead")
  endif()
  foreach(f WHAT DEBIAN TARGET FIND)
    if(NOT L_${f})
      message(FATAL_ERROR "softchat: ${_sc_decl_file}: library '${name}' lacks ${f}")
    endif()
  endforeach()
  if(L_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: library '${name}': unknown arguments "
                        "${L_UNPARSED_ARGUMENTS}")
  endif()
  set_property(GLOBAL APPEND PROPERTY SOFTCHAT_LIBRARIES "${name}")
  set_property(GLOBAL PROPERTY SOFTCHAT_LIB_${name}_DIR "${_sc_decl_dir}")
  foreach(f WHAT DEBIAN TARGET VERSION_VAR PKG_CONFIG CONFIG_DEPENDENCY LIBS_PRIVATE FIND)
    set_property(GLOBAL PROPERTY SOFTCHAT_LIB_${name}_${f} "${L_${f}}")
  endforeach()
  if(L_FIND_MODULE)
    set_property(GLOBAL PROPERTY SOFTCHAT_LIB_${name}_FIND_MODULE "${_sc_decl_dir}/${L_FIND_MODULE}")
  endif()
endfunction()

function(softchat_backend name)
  cmake_parse_arguments(B "" "" "SOURCES;LIBRARIES;REQUIRED;OPTIONAL;MIN_VERSION;TESTS" ${ARGN})
  get_property(known GLOBAL PROPERTY SOFTCHAT_BACKENDS_KNOWN)
  if(name IN_LIST known)
    get_property(where GLOBAL PROPERTY SOFTCHAT_BACKEND_${name}_DIR)
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend '${name}' is already declared "
                        "by ${where}/backend.cmake")
  endif()
  if(NOT name MATCHES "^[a-z0-9][a-z0-9+]*$")
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend name '${name}': use a-z, 0-9, '+'")
  endif()
  if(NOT B_SOURCES OR NOT B_REQUIRED)
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend '${name}' needs SOURCES and REQUIRED")
  endif()
  if(B_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend '${name}': unknown arguments "
                        "${B_UNPARSED_ARGUMENTS}")
  endif()
  list(LENGTH B_OPTIONAL n_opt)
  math(EXPR odd "${n_opt} % 2")
  list(LENGTH B_MIN_VERSION n_min)
  if(odd OR NOT (n_min EQUAL 0 OR n_min EQUAL 3))
    message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend '${name}': OPTIONAL takes "
                        "<cap> <reason> pairs, MIN_VERSION <library> <version> <why>")
  endif()
  set(sources "")
  foreach(s IN LISTS B_SOURCES)
    get_filename_component(abs "${_sc_decl_dir}/${s}" REALPATH)
    list(APPEND sources "${abs}")
  endforeach()
  foreach(t IN LISTS B_TESTS)
    if(NOT t MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "softchat: ${_sc_decl_file}: backend '${name}': TESTS takes test "
                          "names (a-z, 0-9, '_'), test <t> being the program "
                          "tests/backends/<dir>/test_<t>.c; got '${t}'")
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SOFTCHAT_BACKENDS_KNOWN "${name}")
  set_property(GLOBAL PROPERTY SOFTCHAT_BACKEND_${name}_DIR "${_sc_decl_dir}")
  set_property(GLOBAL PROPERTY SOFTCHAT_BACKEND_${name}_SOURCES "${sources}")
  set_property(GLOBAL PROPERTY SOFTCHAT_BACKEND_${name}_TESTS "${B_TESTS}")
  foreach(f LIBRARIES REQUIRED OPTIONAL MIN_VERSION)
    set_property(GLOBAL PROPERTY SOFTCHAT_BACKEND_${name}_${f} "${B_${f}}")
  endforeach()
endfunction()

# Reads every backends/*/backend.cmake (sorted, so the list of known names is stable).
function(_softchat_discover_backends)
  file(GLOB decls CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/backends/*/backend.cmake")
  list(SORT decls)
  foreach(_sc_decl_file IN LISTS decls)
    get_filename_component(_sc_decl_dir "${_sc_decl_file}" DIRECTORY)
    include("${_sc_decl_file}")
  endforeach()
endfunction()

# C string literal body: backslashes and quotes escaped.
function(_softchat_c_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Finds library `lib` once (whichever backends need it) and adds its link, pkg-config and
# find_dependency data to the caller's lists.
macro(_softchat_use_library lib)
  get_property(_target GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_TARGET)
  get_property(_find GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_FIND)
  get_property(_what GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_WHAT)
  get_property(_deb GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_DEBIAN)
  get_property(_ldir GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_DIR)
  if(NOT TARGET ${_target})
    list(PREPEND CMAKE_MODULE_PATH "${_ldir}")
    find_package(${_find} QUIET)
    list(REMOVE_AT CMAKE_MODULE_PATH 0)
    if(NOT TARGET ${_target})
      _softchat_missing("${_what}" "${_deb}")
    endif()
  endif()
  list(APPEND libs ${_target})
  get_property(_pc GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_PKG_CONFIG)
  get_property(_dep GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_CONFIG_DEPENDENCY)
  get_property(_lp GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_LIBS_PRIVATE)
  get_property(_fm GLOBAL PROPERTY SOFTCHAT_LIB_${lib}_FIND_MODULE)
  if(_pc)
    list(APPEND pc ${_pc})
  endif()
  if(_dep)
    string(APPEND deps "find_dependency(${_dep})\n")
  endif()
  if(_lp)
    string(APPEND libs_private " ${_lp}")
  endif()
  if(_fm)
    list(APPEND find_modules "${_fm}")
  endif()
endmacro()

function(softchat_select_backends)
  _softchat_discover_backends()
  get_property(known GLOBAL PROPERTY SOFTCHAT_BACKENDS_KNOWN)
  get_property(known_libs GLOBAL PROPERTY SOFTCHAT_LIBRARIES)
  set(SOFTCHAT_KNOWN_BACKENDS "${known}" PARENT_SCOPE)
  set_property(CACHE SOFTCHAT_BACKENDS PROPERTY STRINGS ${known})

  set(sources "")
  set(libs "")
  set(pc "")
  set(deps "")
  set(decls "")
  set(entries "")
  set(seen "")
  set(libs_private "")
  set(find_modules "")
  set(caps_c "")

  if(SOFTCHAT_BACKENDS STREQUAL "")
    message(FATAL_ERROR "softchat: SOFTCHAT_BACKENDS is empty; choose from: ${known}")
  endif()
  foreach(b IN LISTS SOFTCHAT_BACKENDS)
    if(NOT b IN_LIST known)
      message(FATAL_ERROR "softchat: unknown backend '${b}' in SOFTCHAT_BACKENDS; "
                          "known backends: ${known}")
    endif()
    if(b IN_LIST seen)
      message(FATAL_ERROR "softchat: backend '${b}' is listed twice in SOFTCHAT_BACKENDS")
    endif()
    list(APPEND seen "${b}")
    string(REPLACE "+" "_" sym "${b}")
    string(APPEND decls "extern const sc_backend sc_backend_${sym};\n")
    string(APPEND entries "    &sc_backend_${sym},\n")
  endforeach()

  # Libraries, each once and in declaration order, whichever backends need them; then each
  # backend's version floor.
  set(needed "")
  foreach(b IN LISTS seen)
    get_property(blibs GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_LIBRARIES)
    get_property(bdir GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_DIR)
    foreach(l IN LISTS blibs)
      if(NOT l IN_LIST known_libs)
        message(FATAL_ERROR "softchat: ${bdir}/backend.cmake: backend '${b}' needs library "
                            "'${l}', which no backends/*/backend.cmake declares")
      endif()
      list(APPEND needed "${l}")
    endforeach()
  endforeach()
  foreach(l IN LISTS known_libs)
    if(l IN_LIST needed)
      _softchat_use_library(${l})
    endif()
  endforeach()
  foreach(b IN LISTS seen) # link targets of each backend's own tests
    get_property(blibs GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_LIBRARIES)
    set(targets "")
    foreach(l IN LISTS blibs)
      get_property(t GLOBAL PROPERTY SOFTCHAT_LIB_${l}_TARGET)
      list(APPEND targets ${t})
    endforeach()
    set_property(GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_TARGETS "${targets}")
  endforeach()
  foreach(b IN LISTS seen)
    get_property(minv GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_MIN_VERSION)
    if(minv)
      list(GET minv 0 l)
      list(GET minv 1 want)
      list(GET minv 2 why)
      get_property(vvar GLOBAL PROPERTY SOFTCHAT_LIB_${l}_VERSION_VAR)
      get_property(what GLOBAL PROPERTY SOFTCHAT_LIB_${l}_WHAT)
      set(have "${${vvar}}")
      if(NOT vvar OR have STREQUAL "" OR have VERSION_LESS want)
        message(FATAL_ERROR "softchat: backend '${b}' needs ${what} ${want} or newer; found "
                            "'${have}'. ${why}\nOr drop '${b}' from SOFTCHAT_BACKENDS.")
      endif()
    endif()
  endforeach()

  # Sources (each once: a composite names its parts' files) and the capability declarations.
  foreach(b IN LISTS seen)
    get_property(bsrc GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_SOURCES)
    foreach(s IN LISTS bsrc)
      if(NOT s IN_LIST sources)
        list(APPEND sources "${s}")
      endif()
    endforeach()
    get_property(bdir GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_DIR)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${bdir}/backend.cmake")
    get_property(req GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_REQUIRED)
    get_property(opt GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_OPTIONAL)
    foreach(c IN LISTS req)
      string(APPEND caps_c "    {\"${b}\", \"${rel}\", \"${c}\", NULL},\n")
    endforeach()
    list(LENGTH opt n)
    set(i 0)
    while(i LESS n)
      math(EXPR j "${i} + 1")
      list(GET opt ${i} c)
      list(GET opt ${j} why)
      _softchat_c_string(why "${why}")
      string(APPEND caps_c "    {\"${b}\", \"${rel}\", \"${c}\", \"${why}\"},\n")
      math(EXPR i "${i} + 2")
    endwhile()
  endforeach()

  # The curve: libsecp256k1, built from source (inside libsoftchat.a, nothing for the
  # package to find) or installed (the package depends on it).
  include(SoftchatSecp256k1)
  softchat_find_secp256k1()
  list(APPEND sources "${PROJECT_SOURCE_DIR}/backends/secp256k1/curve.c")
  list(APPEND libs "${SOFTCHAT_SECP256K1_LINK}")
  if(SOFTCHAT_SECP256K1 STREQUAL "system")
    list(APPEND find_modules "${PROJECT_SOURCE_DIR}/cmake/FindSecp256k1.cmake")
    list(APPEND pc libsecp256k1)
    string(APPEND deps "find_dependency(Secp256k1)\n")
  endif()
  set(SOFTCHAT_PC_LIBS_PRIVATE "${libs_private}" PARENT_SCOPE)

  set(SOFTCHAT_SECP256K1_VERSION "${SOFTCHAT_SECP256K1_VERSION}" PARENT_SCOPE)
  set(SOFTCHAT_BACKEND_SOURCES "${sources}" PARENT_SCOPE)
  set(SOFTCHAT_BACKEND_LIBS "${libs}" PARENT_SCOPE)
  list(JOIN pc " " pc_str)
  set(SOFTCHAT_PC_REQUIRES "${pc_str}" PARENT_SCOPE)
  set(SOFTCHAT_CONFIG_DEPS "${deps}" PARENT_SCOPE)
  set(SOFTCHAT_FIND_MODULES "${find_modules}" PARENT_SCOPE)
  set(SOFTCHAT_REGISTRY_DECLS "${decls}" PARENT_SCOPE)
  set(SOFTCHAT_REGISTRY_ENTRIES "${entries}" PARENT_SCOPE)
  set(SOFTCHAT_BACKEND_CAPS_C "${caps_c}" PARENT_SCOPE)
  set(SOFTCHAT_BACKEND_LIST "${seen}" PARENT_SCOPE)
  list(GET seen 0 default)
  set(SOFTCHAT_DEFAULT_BACKEND "${default}" PARENT_SCOPE)
  add_feature_info("backends" ON "${SOFTCHAT_BACKENDS} (default: ${default})")
endfunction()
