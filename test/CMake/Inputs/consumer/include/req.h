struct req { int id; long len; char *name; };
