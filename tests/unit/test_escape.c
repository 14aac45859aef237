/* test_escape.c — external bytes in messages (issue 21, finding 7): every
 * message codec_error_set() builds has its control bytes escaped, and
 * codec__quote_bytes() renders names and keys printable and bounded. */
#include "check.h"
#include "codec/core.h"
#include "core/escape_internal.h"

#include <stdbool.h>
#include <string.h>

/* True when s holds no C0 control, DEL or UTF-8-encoded C1 control. */
static bool terminal_safe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0))
            return false;
    return true;
}

static void expect_escaped(const char *in, const char *want)
{
    char out[192];
    codec__escape_controls(out, sizeof out, in);
    if (strcmp(out, want) != 0)
        fprintf(stderr, "escape '%s': got '%s', want '%s'\n", in, out, want);
    CHECK_STR(out, want);
    CHECK(terminal_safe(out));
}

static void test_escape_controls(void)
{
    expect_escaped("plain text, 'quotes' and \\ stay", "plain text, 'quotes' and \\ stay");
    expect_escaped("\x1b]0;title\x07\x1b[2J", "\\x1b]0;title\\x07\\x1b[2J");
    expect_escaped("tab\tnewline\nCR\rDEL\x7f", "tab\\x09newline\\x0aCR\\x0dDEL\\x7f");
    const char utf8[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";   /* unchanged */
    expect_escaped(utf8, utf8);
    expect_escaped("C1 CSI \xc2\x9b" "31m", "C1 CSI \\xc2\\x9b31m");       /* U+009B */
    expect_escaped("raw \x9b" "31m", "raw \\x9b31m");                      /* 8-bit CSI */
    expect_escaped("\xc0\xaf overlong, \xed\xa0\x80 surrogate",
                   "\\xc0\\xaf overlong, \\xed\\xa0\\x80 surrogate");
    expect_escaped("cut \xe2\x82", "cut \\xe2\\x82");                     /* truncated UTF-8 */

    char small[8];
    codec__escape_controls(small, sizeof small, "ab\x1b" "cdef");   /* never overflows */
    CHECK_STR(small, "ab\\x1bc");
}

static void test_error_set(void)
{
    codec_error err;
    const char reply[] = "ERR \x1b[31mred\x1b[0m\a";
    codec_error_set(&err, CODEC_E_TRANSIENT, 0, "redis", CODEC_NO_OFFSET, "GET: %s", reply);
    CHECK_STR(err.message, "GET: ERR \\x1b[31mred\\x1b[0m\\x07");
    CHECK(terminal_safe(err.message));
    char line[256];
    CHECK(terminal_safe(codec_error_format(&err, line, sizeof line)));
    /* A long hostile message is cut, never overflows, stays safe. */
    char lots[1000];
    memset(lots, 0x1b, sizeof lots - 1);
    lots[sizeof lots - 1] = '\0';
    codec_error_set(&err, CODEC_E_TRANSIENT, 0, "redis", CODEC_NO_OFFSET, "%s", lots);
    CHECK(strlen(err.message) < sizeof err.message && terminal_safe(err.message));
}

static void test_quote_bytes(void)
{
    char out[CODEC_QUOTE_CAP(8)];
    CHECK_STR(codec__quote_bytes(out, sizeof out, "k:1", 3, 8), "k:1");
    CHECK_STR(codec__quote_bytes(out, sizeof out, "a\0'\\\xff", 5, 8), "a\\x00\\x27\\x5c\\xff");
    CHECK_STR(codec__quote_bytes(out, sizeof out, "0123456789", 10, 8), "01234567...");
    CHECK_STR(codec__quote_bytes(out, sizeof out, "\xc3\xa9", 2, 8), "\\xc3\\xa9");
    char tiny[6];
    CHECK_STR(codec__quote_bytes(tiny, sizeof tiny, "\x01\x02", 2, 8), "\\x01");
    CHECK_STR(codec__quote_bytes(tiny, sizeof tiny, "", 0, 8), "");
}

int main(void)
{
    test_escape_controls();
    test_error_set();
    test_quote_bytes();
    return check_done("test_escape");
}
