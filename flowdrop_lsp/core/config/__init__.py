"""What the user and the site configure: settings, which files are workflows, the site's
node types, the baseline of known findings."""
