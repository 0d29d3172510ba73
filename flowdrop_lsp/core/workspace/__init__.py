"""What surrounds one document: the settings in force for a file (the ONE resolver the CLI and
the server share: project file, editor layers, the site's node-type registry, per-file ignores).
The site index (workflows calling workflows across a site's config/sync) will live here too."""
