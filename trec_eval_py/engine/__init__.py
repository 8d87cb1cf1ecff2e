"""The evaluation engine: parse -> join/rank -> measures -> aggregate -> format.

Data flows one way through these subpackages, strung together once in
:mod:`.pipeline`. Everything else in the package (the tools, the pytrec_eval
compat layer, the command line) is built on the stages exposed here.
"""
