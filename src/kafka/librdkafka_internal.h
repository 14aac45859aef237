/* librdkafka_internal.h — the librdkafka functions of the Kafka adapter
 * and of `codec kafka`, reached through a table filled on first use
 * (core/dynlib_internal.h says how and why: librdkafka brings libssl,
 * libsasl2 and more). Include this after codec/kafka.h, which includes
 * <librdkafka/rdkafka.h> for the public types.
 *
 * A caller of codec_kafka_* made its rd_kafka_t with its own librdkafka;
 * opening the same SONAME again finds that copy, so codec's calls and the
 * caller's reach one library. */
#ifndef CODEC_LIBRDKAFKA_INTERNAL_H
#define CODEC_LIBRDKAFKA_INTERNAL_H

#include "core/dynlib_internal.h"

#include <librdkafka/rdkafka.h>

/* The functions src/kafka/ and the command's verb (tools/codec/cmd_kafka.c)
 * call: one table serves both. */
#define CODEC__LIBRDKAFKA_FUNCTIONS(X, T)                                                \
    X(T, rd_kafka_assign)                                                                \
    X(T, rd_kafka_conf)                                                                  \
    X(T, rd_kafka_conf_destroy)                                                          \
    X(T, rd_kafka_conf_get)                                                              \
    X(T, rd_kafka_conf_new)                                                              \
    X(T, rd_kafka_conf_set)                                                              \
    X(T, rd_kafka_conf_set_dr_msg_cb)                                                    \
    X(T, rd_kafka_consumer_close)                                                        \
    X(T, rd_kafka_consumer_poll)                                                         \
    X(T, rd_kafka_destroy)                                                               \
    X(T, rd_kafka_err2str)                                                               \
    X(T, rd_kafka_fatal_error)                                                           \
    X(T, rd_kafka_header_add)                                                            \
    X(T, rd_kafka_header_get_last)                                                       \
    X(T, rd_kafka_headers_copy)                                                          \
    X(T, rd_kafka_headers_destroy)                                                       \
    X(T, rd_kafka_headers_new)                                                           \
    X(T, rd_kafka_message_destroy)                                                       \
    X(T, rd_kafka_message_errstr)                                                        \
    X(T, rd_kafka_message_headers)                                                       \
    X(T, rd_kafka_message_status)                                                        \
    X(T, rd_kafka_metadata)                                                              \
    X(T, rd_kafka_metadata_destroy)                                                      \
    X(T, rd_kafka_new)                                                                   \
    X(T, rd_kafka_offset_store)                                                          \
    X(T, rd_kafka_poll)                                                                  \
    X(T, rd_kafka_producev)                                                              \
    X(T, rd_kafka_topic_destroy)                                                         \
    X(T, rd_kafka_topic_name)                                                            \
    X(T, rd_kafka_topic_new)                                                             \
    X(T, rd_kafka_topic_partition_list_add)                                              \
    X(T, rd_kafka_topic_partition_list_destroy)                                          \
    X(T, rd_kafka_topic_partition_list_new)                                              \
    X(T, rd_kafka_type)

/* The table (codec__librdkafka_fn) and the library that fills it
 * (codec__librdkafka, CODEC_SONAME_LIBRDKAFKA). */
CODEC__DYNLIB_DECLARE(librdkafka, CODEC__LIBRDKAFKA_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define rd_kafka_assign (*codec__librdkafka_fn.fn_rd_kafka_assign)
#define rd_kafka_conf (*codec__librdkafka_fn.fn_rd_kafka_conf)
#define rd_kafka_conf_destroy (*codec__librdkafka_fn.fn_rd_kafka_conf_destroy)
#define rd_kafka_conf_get (*codec__librdkafka_fn.fn_rd_kafka_conf_get)
#define rd_kafka_conf_new (*codec__librdkafka_fn.fn_rd_kafka_conf_new)
#define rd_kafka_conf_set (*codec__librdkafka_fn.fn_rd_kafka_conf_set)
#define rd_kafka_conf_set_dr_msg_cb (*codec__librdkafka_fn.fn_rd_kafka_conf_set_dr_msg_cb)
#define rd_kafka_consumer_close (*codec__librdkafka_fn.fn_rd_kafka_consumer_close)
#define rd_kafka_consumer_poll (*codec__librdkafka_fn.fn_rd_kafka_consumer_poll)
#define rd_kafka_destroy (*codec__librdkafka_fn.fn_rd_kafka_destroy)
#define rd_kafka_err2str (*codec__librdkafka_fn.fn_rd_kafka_err2str)
#define rd_kafka_fatal_error (*codec__librdkafka_fn.fn_rd_kafka_fatal_error)
#define rd_kafka_header_add (*codec__librdkafka_fn.fn_rd_kafka_header_add)
#define rd_kafka_header_get_last (*codec__librdkafka_fn.fn_rd_kafka_header_get_last)
#define rd_kafka_headers_copy (*codec__librdkafka_fn.fn_rd_kafka_headers_copy)
#define rd_kafka_headers_destroy (*codec__librdkafka_fn.fn_rd_kafka_headers_destroy)
#define rd_kafka_headers_new (*codec__librdkafka_fn.fn_rd_kafka_headers_new)
#define rd_kafka_message_destroy (*codec__librdkafka_fn.fn_rd_kafka_message_destroy)
#define rd_kafka_message_errstr (*codec__librdkafka_fn.fn_rd_kafka_message_errstr)
#define rd_kafka_message_headers (*codec__librdkafka_fn.fn_rd_kafka_message_headers)
#define rd_kafka_message_status (*codec__librdkafka_fn.fn_rd_kafka_message_status)
#define rd_kafka_metadata (*codec__librdkafka_fn.fn_rd_kafka_metadata)
#define rd_kafka_metadata_destroy (*codec__librdkafka_fn.fn_rd_kafka_metadata_destroy)
#define rd_kafka_new (*codec__librdkafka_fn.fn_rd_kafka_new)
#define rd_kafka_offset_store (*codec__librdkafka_fn.fn_rd_kafka_offset_store)
#define rd_kafka_poll (*codec__librdkafka_fn.fn_rd_kafka_poll)
#define rd_kafka_producev (*codec__librdkafka_fn.fn_rd_kafka_producev)
#define rd_kafka_topic_destroy (*codec__librdkafka_fn.fn_rd_kafka_topic_destroy)
#define rd_kafka_topic_name (*codec__librdkafka_fn.fn_rd_kafka_topic_name)
#define rd_kafka_topic_new (*codec__librdkafka_fn.fn_rd_kafka_topic_new)
#define rd_kafka_topic_partition_list_add (*codec__librdkafka_fn.fn_rd_kafka_topic_partition_list_add)
#define rd_kafka_topic_partition_list_destroy (*codec__librdkafka_fn.fn_rd_kafka_topic_partition_list_destroy)
#define rd_kafka_topic_partition_list_new (*codec__librdkafka_fn.fn_rd_kafka_topic_partition_list_new)
#define rd_kafka_type (*codec__librdkafka_fn.fn_rd_kafka_type)
#endif

#endif /* CODEC_LIBRDKAFKA_INTERNAL_H */
