//! Sandtable's engine: the content model, loading and checking, and (in later stages) the
//! effect language, the rules and the session.
//!
//! The pipeline: content files → [`load`] (text → [`ron_syntax`] tree → JSON checked against
//! [`schema`] → typed [`model`]) → [`check`] → [`content::Content`]. Every stage reports
//! problems as [`diag::Diagnostic`]s and keeps going.
//!
//! Invariants: the engine never panics on input, never prints, never reads the clock; its only
//! I/O is reading and writing content through [`load::ContentSource`] and [`format`]. It has no
//! `unsafe` code (forbidden below), so the fuzz targets run without a memory sanitizer.

#![forbid(unsafe_code)]

pub mod agent;
pub mod check;
pub mod content;
pub mod content_diff;
pub mod diag;
pub mod examples;
pub mod format;
pub mod hex;
pub mod id;
pub use id::Id;
pub mod load;
pub mod model;
pub mod narrate;
pub mod playtest;
pub mod ron_syntax;
pub mod rules;
mod scenario_rules;
pub mod schema;
pub mod script;
pub mod session;
pub mod sim;
pub mod state;
pub mod tables;
pub mod variant;
