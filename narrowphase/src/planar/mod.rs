//! 2D convex polygons: point, line, segment, rectangle, circle and polygon tests.
