#!/bin/sh
# Answers $1 without reading its input, then exits.
echo "$1"
