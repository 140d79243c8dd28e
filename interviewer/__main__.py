from interviewer.cli import main

raise SystemExit(main())
