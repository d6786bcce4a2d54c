/* The provers cuzk-daemon serves, one per proof kind. */
#ifndef CUZK_DAEMON_PROVERS_H
#define CUZK_DAEMON_PROVERS_H
#include "cuzk/engine.h"
#include "cuzk/server.h"

/* Register every prover this build has (and the SRS circuits they use)
 * with e, before cz_engine_start. A kind left unregistered answers
 * UNIMPLEMENTED. Errors are fatal to the daemon (msg says why). */
cz_err cz_daemon_register_provers(cz_engine *e, const cz_daemon_config *cfg,
                                  cz_circom_keys **circom, char *msg, size_t msg_len);
/* Load the [[circom.keys]] of cfg (the engine started); the first that
 * does not load stops the daemon (msg names it). */
cz_err cz_daemon_load_circom_keys(cz_circom_keys *k, const cz_daemon_config *cfg, char *msg,
                                  size_t msg_len);

/* With gpus.devices = [] on a CUDA backend, the engine runs as many jobs
 * at once as the devices the runtime reports take (x gpu_workers_per_device)
 * instead of one device's: ec->n_workers raised to that. */
void cz_daemon_workers_for_devices(const cz_daemon_config *cfg, cz_engine_config *ec);

#endif
