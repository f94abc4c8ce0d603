//! Area B of the service document: the aggregated authentication API.
