/* utf8_lookup_internal.h — the three 16-entry tables of the UTF-8 check by lookup
 * of Keiser and Lemire ("Validating UTF-8 In Less Than One Instruction Per
 * Byte", 2021), shared by the string scanner (string_avx2.c) and the
 * skipper (skip_avx512.c): the high nibble of the previous byte, its low
 * nibble and the high nibble of the byte itself each select the error
 * classes they allow; a byte is wrong when the three agree on one, or when
 * it should continue a 3- or 4-byte sequence and does not. */
#ifndef CODEC_JSON_UTF8_LOOKUP_H
#define CODEC_JSON_UTF8_LOOKUP_H

#include <stdint.h>

/* Error classes, one bit each, of a (previous byte, byte) pair. */
enum {
    TOO_SHORT = 1 << 0,      /* a lead byte followed by a lead or ASCII */
    TOO_LONG = 1 << 1,       /* ASCII followed by a continuation */
    OVERLONG_3 = 1 << 2,     /* E0 followed by 80..9F */
    TOO_LARGE = 1 << 3,      /* F4 followed by 90..BF, or F5..FF */
    SURROGATE = 1 << 4,      /* ED followed by A0..BF */
    OVERLONG_2 = 1 << 5,     /* C0 or C1 */
    TOO_LARGE_1000 = 1 << 6, /* F5..FF followed by 80..8F */
    OVERLONG_4 = 1 << 6,     /* F0 followed by 80..8F */
    TWO_CONTS = 1 << 7,      /* two continuations in a row */
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
};

static const uint8_t utf8_byte_1_high[16] = {
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4};
static const uint8_t utf8_byte_1_low[16] = {
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000};
static const uint8_t utf8_byte_2_high[16] = {
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT};

#endif
