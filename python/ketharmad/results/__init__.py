"""The results layer: batch results (SimResult, GameLog), frames, Parquet and files with
provenance, the lab result base class and report writing. Imports the ``game`` layer only."""
