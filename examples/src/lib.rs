//! Shared helpers of Tumble's example simulations (drawing, output folders).
