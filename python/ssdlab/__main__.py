from ssdlab.cli import main

main()
