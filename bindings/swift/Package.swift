// swift-tools-version:6.0
// SoftchatKit: the authored Swift API of libsoftchat (docs/bindings.md, "Swift").
//
// The C module CSoftchat is never compiled by SwiftPM: libsoftchat has one build, CMake's.
//   - Linux: a system library target. SwiftPM finds the installed library through its
//     pkg-config file (softchat.pc: set PKG_CONFIG_PATH to PREFIX/lib/pkgconfig after
//     `cmake --install`); Sources/CSoftchat/module.modulemap imports the installed
//     <softchat/softchat.h> and links -lsoftchat.
//   - Apple platforms: a binary target, CSoftchat.xcframework beside this file, built by
//     bindings/apple/xcframework.sh (CMake for each slice; it carries the same module map).
import PackageDescription

#if os(Linux) || os(Android) || os(Windows)
let cModule: Target = .systemLibrary(name: "CSoftchat", path: "Sources/CSoftchat", pkgConfig: "softchat")
#else
let cModule: Target = .binaryTarget(name: "CSoftchat", path: "CSoftchat.xcframework")
#endif

let package = Package(
    name: "SoftchatKit",
    platforms: [.iOS(.v14), .macOS(.v11)],
    products: [.library(name: "SoftchatKit", targets: ["SoftchatKit"])],
    targets: [
        cModule,
        .target(name: "SoftchatKit", dependencies: ["CSoftchat"]),
        .testTarget(name: "SoftchatKitTests", dependencies: ["SoftchatKit", "CSoftchat"]),
    ],
    swiftLanguageModes: [.v6]
)
