/* softchat: the command-line front end of libsoftchat. */
#include "cli.h"

#include <signal.h>
#include <errno.h>
#include <string.h>

static const cli_command commands[] = {
    {"backends", "backends", cmd_backends},
    {"selftest", "selftest", cmd_selftest},
    {"key",
     "key new [--out FILE]\n"
     "  softchat key pub --sec-file FILE",
     cmd_key},
    {"event",
     "event sign (--sec-file FILE | --signer URI) < template.json\n"
     "  softchat event verify < events",
     cmd_event},
    {"nip44",
     "nip44 encrypt --sec-file FILE --pub KEY [--nonce HEX] [--extended] < plaintext\n"
     "  softchat nip44 decrypt --sec-file FILE --pub KEY < payload",
     cmd_nip44},
    {"nip19",
     "nip19 decode STRING|-\n"
     "  softchat nip19 encode npub KEY\n"
     "  softchat nip19 encode note HEX\n"
     "  softchat nip19 encode nsec --sec-file FILE\n"
     "  softchat nip19 encode nprofile KEY [--relay URL]...\n"
     "  softchat nip19 encode nevent HEX [--relay URL]... [--author KEY] [--kind N]\n"
     "  softchat nip19 encode naddr --identifier S --author KEY --kind N [--relay URL]...",
     cmd_nip19},
    {"nip49",
     "nip49 encrypt --sec-file FILE --password-file FILE [--log-n N] [--key-security S]\n"
     "  softchat nip49 decrypt --password-file FILE [--out FILE] [NCRYPTSEC|-]\n"
     "  softchat nip49 inspect [NCRYPTSEC|-]",
     cmd_nip49},
    {"nip98",
     "nip98 sign --sec-file FILE --url URL --method METHOD [--payload-file FILE]\n"
     "  softchat nip98 verify --url URL --method METHOD [--payload-file FILE] [HEADER|-]",
     cmd_nip98},
    {"nip59",
     "nip59 wrap --sec-file FILE --to KEY [--ephemeral] < template.json\n"
     "  softchat nip59 unwrap --sec-file FILE < giftwrap.json",
     cmd_nip59},
    {"nip17",
     "nip17 send --sec-file FILE --to KEY[,KEY...] [--subject S] [--reply ID] < text\n"
     "  softchat nip17 receive --sec-file FILE < giftwraps",
     cmd_nip17},
    {"file",
     "file encrypt IN OUT [--mime TYPE]\n"
     "  softchat file decrypt (--key-file FILE | --key HEX) --nonce HEX IN OUT",
     cmd_file},
    {"relay",
     "relay publish --url URL [--sec-file FILE] < events\n"
     "  softchat relay fetch --url URL --filter JSON [--follow [--count N]]\n"
     "  softchat relay sync --url URL --sec-file FILE [--have FILE]",
     cmd_relay},
    {"dm",
     "dm inbox set (--key FILE | --signer URI) --relay URL... [--to-relays URL...]\n"
     "  softchat dm inbox get KEY --bootstrap URL[,URL...] [--json]\n"
     "  softchat dm send (--key FILE | --signer URI) --to KEY[,KEY...] --bootstrap URL...\n"
     "           [MESSAGE]\n"
     "  softchat dm listen (--key FILE | --signer URI) --state DB\n"
     "           (--relay URL... | --bootstrap URL...)",
     cmd_dm},
    {"bunker",
     "bunker --key FILE --relay URL... [--bunker-key FILE] [--allow GRANT,...] [--secret S]",
     cmd_bunker},
    {"signer",
     "signer connect --relay URL... --signer-key FILE [--perms LIST] [--name NAME] [--json]",
     cmd_signer},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: softchat [--backend NAME] COMMAND [ARGS]\n\ncommands:\n");
    for (i = 0; i < N_COMMANDS; i++) {
        fprintf(f, "  softchat %s\n", commands[i].summary);
    }
    fprintf(f, "\n\"softchat COMMAND --help\" describes a command. --backend NAME (anywhere on the "
               "line) selects\nthe crypto backend; \"softchat backends\" lists them.\n"
               "\nexit status: 0 success, 1 invalid or unauthentic input, 2 usage, I/O or "
               "environment error\n");
}

/* Whatever a command printed through stdio must have reached stdout: a write error (a full
 * disk, a closed pipe) is exit 2, as for the commands that write with write(2). */
static int flushed(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_fail(CLI_ERROR, "cannot write the output: %s", strerror(errno));
        return CLI_ERROR;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    cli_globals g = {NULL};
    size_t i;

    argc = cli_take_backend(&g, argc - 1, argv + 1);
    argv++;
    if (argc < 0) {
        return CLI_ERROR;
    }
    if (argc == 0) {
        print_usage(stderr);
        return CLI_ERROR;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 ||
        strcmp(argv[0], "help") == 0) {
        print_usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[0], "--version") == 0) {
        printf("softchat %s (libsecp256k1 %s; NIP-49 password normaliser: %s)\n", sc_version(),
               sc_version_secp256k1(), cli_nfkc_impl());
        return CLI_OK;
    }
    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i].name, argv[0]) == 0) {
            return commands[i].run(&g, argc, argv);
        }
    }
    cli_fail(CLI_ERROR, "unknown command '%s'", cli_shown(argv[0]));
    print_usage(stderr);
    return CLI_ERROR;
}

int main(int argc, char **argv)
{
    /* A closed stdout must surface as a write error (exit 2) after the secrets are wiped,
     * not as a signal that kills the process midway. */
    signal(SIGPIPE, SIG_IGN);
    return flushed(run(argc, argv));
}
