/* See jsonw.h. The escaping is the library's (core/util/json_escape.c, through softchat_text). */
#include "jsonw.h"

#include <string.h>

#include "util/json_escape.h"

static int put_file(void *f, const char *p, size_t n)
{
    return fwrite(p, 1, n, (FILE *)f) == n ? 0 : -1;
}

void jsonw_str(FILE *f, const char *s)
{
    /* write errors show in the stream's error flag, which the record's writer checks */
    (void)sc_json_put_string(s, strlen(s), SC_JSON_PUT_REPLACE, put_file, f);
}
