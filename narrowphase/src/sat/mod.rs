//! Separating axis tests (SAT): see the module docs once written.
