"""The balance lab, one module per feature: ``matchups``, ``sweep``, ``tournament``,
``card_stats``, ``balance`` and ``health`` (the game-health report), each with its compute, result class and reports; the harness
games' matchups in ``harness``. ``sweep`` and ``tournament`` are written once for every game,
over the game's driver (:mod:`ketharmad.game.driver`); every result derives from
:class:`ketharmad.results.lab.LabResult`; the commands live in :mod:`ketharmad.cli`
(docs/balance_lab.md)."""
