//! The fad-campaign service.
