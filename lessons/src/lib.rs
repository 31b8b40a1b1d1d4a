//! Lessons.
