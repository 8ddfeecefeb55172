//! Sweeps for continuous collision: time of first contact of moving shapes.
