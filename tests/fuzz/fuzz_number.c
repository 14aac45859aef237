/* fuzz_number.c — the number parser on arbitrary bytes (it must never
 * crash, must accept exactly what glibc's regex engine matches as a JSON
 * number unless it overflows, and must agree with strtod/strtof), and
 * the formatter on the bytes read as a double and as a float (the text must
 * read back to the same bits, through glibc and through our parser). */
#include "fuzz_target.h"
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/number_internal.h"

/* RFC 8259's number, whole: the grammar checked independently. */
static int is_json_number(const char *text, size_t size)
{
    static regex_t re;
    static int compiled;
    if (!compiled) {
        if (regcomp(&re, "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$",
                    REG_EXTENDED | REG_NOSUB))
            abort();
        compiled = 1;
    }
    return strlen(text) == size && regexec(&re, text, 0, NULL, 0) == 0;
}

static void check_parse(const uint8_t *data, size_t size)
{
    double d;
    float f;
    int rd = codec__parse_double((const char *)data, size, &d);
    int rf = codec__parse_float((const char *)data, size, &f);
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    if ((rd == 0) != (is_json_number(text, size) && !isinf(strtod(text, NULL))))
        abort();
    /* The grammar does not depend on the width, only overflow does. */
    if (rd == 0 && rf != 0 && !isinf(strtof(text, NULL)))
        abort();
    if (rd == 0 && (strtod(text, NULL) != d || signbit(strtod(text, NULL)) != signbit(d)))
        abort();
    if (rf == 0 && memcmp(&(float){strtof(text, NULL)}, &f, sizeof f) != 0)
        abort();
    if (rf == 0 && rd != 0)
        abort();
    free(text);
}

static void check_format_double(double v)
{
    if (!isfinite(v))
        return;
    char out[CODEC_NUMBER_MAX_CHARS + 1];
    size_t n = codec__format_double(v, out);
    if (n == 0 || n > CODEC_NUMBER_MAX_CHARS)
        abort();
    out[n] = '\0';
    double back = strtod(out, NULL), mine;
    if (memcmp(&back, &v, sizeof v) != 0)
        abort();
    if (codec__parse_double(out, n, &mine) != 0 || memcmp(&mine, &v, sizeof v) != 0)
        abort();
}

static void check_format_float(float v)
{
    if (!isfinite(v))
        return;
    char out[CODEC_NUMBER_MAX_CHARS + 1];
    size_t n = codec__format_float(v, out);
    if (n == 0 || n > CODEC_NUMBER_MAX_CHARS)
        abort();
    out[n] = '\0';
    float back = strtof(out, NULL), mine;
    if (memcmp(&back, &v, sizeof v) != 0)
        abort();
    if (codec__parse_float(out, n, &mine) != 0 || memcmp(&mine, &v, sizeof v) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_parse(data, size);
    if (size >= sizeof(double)) {
        double d;
        memcpy(&d, data, sizeof d);
        check_format_double(d);
    }
    if (size >= sizeof(float)) {
        float f;
        memcpy(&f, data, sizeof f);
        check_format_float(f);
    }
    return 0;
}
