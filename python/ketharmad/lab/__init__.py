"""The balance lab, one module per feature: ``matchups``, ``sweep``, ``tournament``,
``card_stats`` and ``balance``, each with its compute, result class, reports and CLI wiring;
``plan`` is the runner every feature plays its games through and ``result`` the result base
class (docs/balance_lab.md)."""
