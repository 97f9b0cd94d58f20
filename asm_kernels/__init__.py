"""Hand-written RV32IMFC + Xpulpv2 assembly kernels for DNN training, with a catalogue (data)
and a runner that executes them on the simulated cluster."""
