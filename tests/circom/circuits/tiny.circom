pragma circom 2.0.0;
// The smallest useful circuit: c = a * b and d = c * c + a, a public. Its
// keys are small enough to be fuzzing seeds, and it is compiled for bn128
// and set up for PLONK and FFLONK too, so that the refusals of those
// files are tested on real ones.
template Tiny() {
    signal input a;
    signal input b;
    signal output d;
    signal c;
    c <== a * b;
    d <== c * c + a;
}
