# Shared helpers; lib/ is skipped by discovery.
log() { echo "$*"; }
