"""ycsb-embedded analysis: run the scenario matrix, parse YCSB's output, render reports.

One command line, run from the repository root (analysis/__main__.py):
    python -m analysis run --quick          runs engines x scenarios, then writes the report
    python -m analysis report RESULTS_DIR   (re)renders the report of a results directory
    python -m analysis compare DIR_A DIR_B  compares two results directories as ratios
    python -m analysis list                 prints the scenario catalogue
    python -m analysis crash ...            the durability check
"""
