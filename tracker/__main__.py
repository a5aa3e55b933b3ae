"""`python -m tracker` runs the command line."""

from tracker.cli import console

if __name__ == "__main__":
    console()
