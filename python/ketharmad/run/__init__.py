"""The run layer: the plan runner, progress meters, Dask executors and the reductions of
batches. Imports the ``results`` and ``game`` layers, nothing above them."""
