"""The balance lab, one module per feature: ``matchups``, ``sweep``, ``tournament``,
``card_stats`` and ``balance``, each with its compute, result class and reports; the harness
games' lab in ``harness`` and ``game_sweep``. Every feature plays its games through the plan
runner (:mod:`ketharmad.run.plan`) and its result derives from
:class:`ketharmad.results.lab.LabResult`; the commands live in :mod:`ketharmad.cli`
(docs/balance_lab.md)."""
