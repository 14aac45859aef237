/* mock_cluster.c — serves librdkafka's mock Kafka cluster to the test
 * scripts: the real Kafka protocol, 3 brokers on 127.0.0.1 (free ports).
 *
 *   kafka_mock_cluster [TOPIC:PARTITIONS ...]
 *
 * Creates the topics, prints the bootstrap servers on one line, then keeps
 * the cluster up until its standard input closes (the script holds a pipe
 * open and closes it to stop it). */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char why[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", why, sizeof why);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why);
    rd_kafka_mock_cluster_t *mc = rk ? rd_kafka_mock_cluster_new(rk, 3) : NULL;
    if (!mc) {
        fprintf(stderr, "mock_cluster: cannot start: %s\n", rk ? "mock" : why);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        char *colon = strrchr(argv[i], ':');
        int partitions = colon ? atoi(colon + 1) : 1;
        if (colon)
            *colon = '\0';
        if (partitions < 1 || rd_kafka_mock_topic_create(mc, argv[i], partitions, 3)) {
            fprintf(stderr, "mock_cluster: bad topic '%s'\n", argv[i]);
            return 1;
        }
    }
    printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
    fflush(stdout);
    while (getchar() != EOF)
        ;
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(rk);
    return 0;
}
