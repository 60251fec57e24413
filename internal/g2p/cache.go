package g2p

import "container/list"

// lru is a bounded least-recently-used string cache. It is not safe for
// concurrent use; the Phonemizer guards it with its mutex.
type lru struct {
	max   int
	ll    *list.List
	items map[string]*list.Element
}

type lruEntry struct{ key, val string }

func newLRU(max int) *lru {
	return &lru{max: max, ll: list.New(), items: map[string]*list.Element{}}
}

func (c *lru) get(key string) (string, bool) {
	if e, ok := c.items[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*lruEntry).val, true
	}
	return "", false
}

func (c *lru) put(key, val string) {
	if c.max <= 0 {
		return
	}
	if e, ok := c.items[key]; ok {
		e.Value.(*lruEntry).val = val
		c.ll.MoveToFront(e)
		return
	}
	c.items[key] = c.ll.PushFront(&lruEntry{key, val})
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}

func (c *lru) len() int { return c.ll.Len() }
