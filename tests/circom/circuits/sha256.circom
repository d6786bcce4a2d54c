pragma circom 2.0.0;
// circomlib's SHA-256 of a 512-bit message: bit-heavy and sparse (the
// issue's benchmark circuit). The 256 digest bits are public outputs.
include "../node_modules/circomlib/circuits/sha256/sha256.circom";


