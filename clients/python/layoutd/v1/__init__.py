"""The protocol's messages, generated from proto/layoutd/v1 by clients/python/generate.sh."""
