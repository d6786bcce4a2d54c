/* cuzk-bench subcommands: each takes the arguments after its own name
 * (argv[0] is the subcommand) and returns the process exit status. */
#ifndef CUZK_BENCH_COMMANDS_H
#define CUZK_BENCH_COMMANDS_H

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cz_bench_command;

/* The registry, terminated by a zero entry (main.c). */
extern const cz_bench_command cz_bench_commands[];

/* The subcommands, one per tools/cuzk-bench or bench/ source. */
int cmd_bench_cs(int argc, char **argv);  /* bench/cs/bench_cs.c */
int cmd_bench_ec(int argc, char **argv);  /* bench/ec/bench_ec.c */
int cmd_verify(int argc, char **argv);    /* tools/cuzk-bench/cmd_verify.c */
int cmd_gen_vanilla(int argc, char **argv); /* tools/cuzk-bench/cmd_gen_vanilla.c */
int cmd_synth_only(int argc, char **argv); /* tools/cuzk-bench/cmd_synth_only.c */
int cmd_verify_seal(int argc, char **argv); /* tools/cuzk-bench/cmd_verify_seal.c */
int cmd_bench_ntt(int argc, char **argv);   /* bench/ntt/bench_ntt.c */
int cmd_prove(int argc, char **argv);     /* tools/cuzk-bench/cmd_prove.c */
int cmd_bench_msm(int argc, char **argv); /* bench/msm/bench_msm.c */
int cmd_bench_poseidon(int argc, char **argv); /* bench/hash/bench_poseidon.c */
int cmd_bench_sha256(int argc, char **argv); /* bench/gadgets/bench_sha256.c */
int cmd_bench_seal(int argc, char **argv); /* bench/filecoin/bench_seal.c */
int cmd_bench_post_count(int argc, char **argv); /* bench/filecoin/bench_post_count.c */
int cmd_c1_parse(int argc, char **argv);   /* tools/cuzk-bench/cmd_c1_parse.c */

#ifdef CUZK_HAVE_GRPC /* tools/cuzk-bench/client/cmd_client.c: daemon commands */
int cmd_client_status(int argc, char **argv);
int cmd_client_metrics(int argc, char **argv);
int cmd_client_preload(int argc, char **argv);
int cmd_client_evict(int argc, char **argv);
int cmd_client_single(int argc, char **argv);
int cmd_client_batch(int argc, char **argv);
#endif

#endif
