"""The trec_eval versions whose output can be reproduced (``--compat``), and the
default one: named once here, read by every layer (a module without imports, so
the command line reads it without loading the engine)."""

#: what ``--compat`` may name, oldest first
COMPAT_VERSIONS = ("9.0.8", "10.0")
#: the version reproduced when none is named (trec_eval's last release before 10.0)
DEFAULT_COMPAT = COMPAT_VERSIONS[0]
