"""ycsb-embedded analysis: run the scenario matrix, parse YCSB's output, render reports.

Entry points (run from the repository root):
    python -m analysis.suite --quick        runs engines x scenarios, then writes the report
    python -m analysis.report RESULTS_DIR   (re)renders the report of a results directory
    python -m analysis.compare DIR_A DIR_B  compares two results directories as ratios
"""
