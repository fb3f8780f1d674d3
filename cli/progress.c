/* A progress line for long file operations: drawn on stderr only when a person is watching
 * (stderr is a terminal) and the file is large enough to take a noticeable time, redrawn in
 * place (carriage return) when the percentage changes, and erased when the work ends. */
#include "cli.h"

#include <unistd.h>

#define PROGRESS_MIN_BYTES (8u * 1024u * 1024u)

static void draw(cli_progress *p, int percent)
{
    double mib = 1024.0 * 1024.0;
    int n = fprintf(stderr, "\rsoftchat: %s %3d%% (%.1f of %.1f MiB)", p->label, percent,
                    (double)p->done / mib, (double)p->total / mib);

    if (n > p->width) {
        p->width = n;
    }
    p->percent = percent;
}

void cli_progress_start(cli_progress *p, const char *label, uint64_t total)
{
    p->label = label;
    p->total = total;
    p->done = 0;
    p->percent = -1;
    p->width = 0;
    p->shown = total > PROGRESS_MIN_BYTES && isatty(2);
    if (p->shown) {
        draw(p, 0);
    }
}

void cli_progress_add(cli_progress *p, uint64_t n)
{
    int percent;

    if (!p->shown) {
        return;
    }
    p->done += n;
    if (p->done > p->total) {
        p->done = p->total; /* the file grew while being read */
    }
    percent = (int)(p->done * 100u / p->total);
    if (percent != p->percent) {
        draw(p, percent);
    }
}

void cli_progress_end(cli_progress *p)
{
    if (p->shown) {
        /* blank the line and return to its start, so what follows is printed cleanly */
        fprintf(stderr, "\r%*s\r", p->width, "");
        p->shown = 0;
    }
}
