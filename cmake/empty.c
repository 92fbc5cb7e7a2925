/* The shared libraries are the archive liblockstep.a linked whole; a target needs a source. */
