#!/usr/bin/env bash
# Debian's Prometheus for the Aspire AppHost, its log on stdout: Prometheus logs everything to stderr, which the
# dashboard shows as errors.
exec prometheus "$@" 2>&1
