//! Rooms that outlive their node.
