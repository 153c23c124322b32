WARNING|BUG|Oops|locking correctness validator|cut here|refcount_t|UBSAN|KASAN|KFENCE|suspected memory leak|blocked for more than
