"""``trec_eval_py serve``: a live class leaderboard, self-hosted (the ``[serve]`` extra).

One process serves a class: students sign in with one-time links, upload runs
(in the browser or with ``curl``), get the findings ``validate`` gives and, for
a valid run, its scores on the public topics; the teacher reveals the private
board at the end and takes ``grades.csv`` as ``batch`` writes it.

The modules:

* :mod:`.grading` -- everything taken from the tools (the only module that
  imports them): the judgments split into public and private topics, one
  stored run graded (validated, then evaluated on each part), ``grades.csv``;
* :mod:`.store` -- the state folder: SQLite in WAL mode (with schema
  migrations), the uploaded runs stored by content hash, sign-in links,
  sessions and tokens (hashed at rest);
* :mod:`.worker` -- the bounded pool of processes that grades stored runs;
* :mod:`.app` -- the ASGI application (Starlette, Jinja2), :mod:`.pages` its
  templates;
* :mod:`.export` -- what the teacher downloads, also written without the server.

Nothing outside this package imports it but the ``serve`` command, so the core
package never needs its dependencies.
"""
