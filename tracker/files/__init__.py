"""Files in and out: opening what the user names (files, folders, archives, standard
input) and writing outputs whole or not at all (standard library only)."""
