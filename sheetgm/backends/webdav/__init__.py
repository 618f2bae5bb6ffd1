"""WebDAV adapter: workbooks in shared folders on a WebDAV server (Nutstore, Nextcloud...)."""
