/* A deliberately bad shared library for platform.elf.selftest: linked with 4 KiB pages and
 * exporting a symbol outside sc_*, so tests/platform/check_elf.sh must fail on it. Never
 * shipped or loaded. */
int not_softchat(int x);
int not_softchat(int x)
{
    return x + 1;
}
