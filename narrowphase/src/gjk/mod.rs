//! GJK distance and intersection for convex shapes.
