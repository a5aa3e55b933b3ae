"""The library's verbs, named after what users do: the one door the command line goes
through to the store and the engine. None of them prints."""
