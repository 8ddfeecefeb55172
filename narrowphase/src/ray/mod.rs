//! Ray casts against every shape.
