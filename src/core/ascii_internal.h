/* ascii_internal.h — character helpers shared by the parsers of key files,
 * URLs and other text the library reads. */
#ifndef CODEC_ASCII_INTERNAL_H
#define CODEC_ASCII_INTERNAL_H

/* The value of one hex digit (either case), or -1. */
static inline int codec_hex_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
