"""Operations: rate and size limits, security headers, health and readiness, metrics, logs."""
