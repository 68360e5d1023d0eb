/* Slot numbers for users (mapping-slots.h): frames of tracker ids in, each
 * user's slot out, checked against the lowest-free rule step by step. */
#include <string.h>

#include "mapping/mapping-slots.h"

/* A frame of users with these tracker ids, in this order (0 ends). */
static void
frame_of(TrackerFrame *frame, const guint *ids)
{
	memset(frame, 0, sizeof(*frame));
	for (guint i = 0; ids[i] != 0; i++)
		frame->users[frame->n_users++].id = ids[i];
}

static void
update(MappingSlots *slots, const guint *ids)
{
	TrackerFrame frame;

	frame_of(&frame, ids);
	mapping_slots_update(slots, &frame);
}

#define UPDATE(slots, ...) update(slots, (const guint[]){ __VA_ARGS__, 0 })

static void
test_first_seen_in_frame_order(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 7, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 7), ==, 1);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 2);
	UPDATE(&slots, 3, 9, 7);
	g_assert_cmpuint(mapping_slots_get(&slots, 7), ==, 1);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 2);
	g_assert_cmpuint(mapping_slots_get(&slots, 9), ==, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 4), ==, 0);
	g_assert_cmpuint(mapping_slots_get(&slots, 0), ==, 0);
}

static void
test_lowest_free_reused(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 1, 2, 3);
	UPDATE(&slots, 2, 3); /* 1 leaves slot 1 */
	UPDATE(&slots, 2, 3, 4);
	g_assert_cmpuint(mapping_slots_get(&slots, 4), ==, 1);
	UPDATE(&slots, 3, 4); /* 2 leaves slot 2 */
	UPDATE(&slots, 3, 4, 5, 6);
	g_assert_cmpuint(mapping_slots_get(&slots, 5), ==, 2);
	g_assert_cmpuint(mapping_slots_get(&slots, 6), ==, 4);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 4), ==, 1);
}

static void
test_six_at_once(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 16, 15, 14, 13, 12, 11);
	for (guint id = 11; id <= 16; id++)
		g_assert_cmpuint(mapping_slots_get(&slots, id), ==, 17 - id);
	/* Everyone leaves, six others come: the same six slots. */
	UPDATE(&slots, 21);
	g_assert_cmpuint(mapping_slots_get(&slots, 21), ==, 1);
	UPDATE(&slots, 21, 22, 23, 24, 25, 26);
	for (guint id = 21; id <= 26; id++)
		g_assert_cmpuint(mapping_slots_get(&slots, id), ==, id - 20);
}

/* A user the tracker still knows comes back with their id, and takes
 * the lowest slot free then, not the one they had. */
static void
test_returning_user_takes_lowest_free(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 1, 2);
	UPDATE(&slots, 2);
	UPDATE(&slots, 2, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 1);
	UPDATE(&slots, 2, 3, 1);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 3);
	/* Slot 2 freed, then the user back with a new tracker id. */
	UPDATE(&slots, 3, 1);
	UPDATE(&slots, 3, 1, 4);
	g_assert_cmpuint(mapping_slots_get(&slots, 4), ==, 2);
}

/* One frame does not tell of a slot's user leaving and another arriving:
 * the newcomer takes another slot while there is one. */
static void
test_not_given_again_the_frame_it_is_freed(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 1, 2);
	UPDATE(&slots, 2, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 1);
	UPDATE(&slots, 2, 3, 4);
	g_assert_cmpuint(mapping_slots_get(&slots, 4), ==, 1);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 0);
}

/* Six in view, one leaves as a seventh comes: the only slot free is the
 * one just freed, and it still answers for who left it, this frame. */
static void
test_full_house(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 1, 2, 3, 4, 5, 6);
	UPDATE(&slots, 1, 2, 4, 5, 6, 7);
	g_assert_cmpuint(mapping_slots_get(&slots, 7), ==, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 3);
	UPDATE(&slots, 1, 2, 4, 5, 6, 7);
	g_assert_cmpuint(mapping_slots_get(&slots, 7), ==, 3);
	g_assert_cmpuint(mapping_slots_get(&slots, 3), ==, 0);
}

/* Who left answers with their slot while nobody else has it (the lost
 * user's message, a chosen user held through a gap). */
static void
test_left_slot_answers_until_taken(void)
{
	MappingSlots slots;

	mapping_slots_init(&slots);
	UPDATE(&slots, 1, 2);
	UPDATE(&slots, 2);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 1);
	UPDATE(&slots, 2);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 1);
	UPDATE(&slots, 2, 5);
	g_assert_cmpuint(mapping_slots_get(&slots, 5), ==, 1);
	g_assert_cmpuint(mapping_slots_get(&slots, 1), ==, 0);
}

/* Users coming and going at random, against the rule spelled out: two
 * users in view never share a slot, a user keeps theirs while in view, a
 * newcomer takes the lowest slot neither held nor freed this frame. */
typedef struct {
	guint ids[MAPPING_SLOTS_N + 1];
	guint n;
} Crowd;

static guint
model_newcomer_slot(const guint *held, const gboolean *freed)
{
	for (guint s = 0; s < MAPPING_SLOTS_N; s++) {
		if (held[s] == 0 && !freed[s])
			return s + 1;
	}
	for (guint s = 0; s < MAPPING_SLOTS_N; s++) {
		if (held[s] == 0)
			return s + 1;
	}
	g_assert_not_reached();
}

static void
crowd_step(GRand *rand, Crowd *crowd, guint *next_id)
{
	for (guint i = 0; i < crowd->n;) {
		if (g_rand_int_range(rand, 0, 6) == 0)
			crowd->ids[i] = crowd->ids[--crowd->n];
		else
			i++;
	}
	while (crowd->n < MAPPING_SLOTS_N && g_rand_int_range(rand, 0, 3) == 0)
		crowd->ids[crowd->n++] = (*next_id)++;
	crowd->ids[crowd->n] = 0;
}

static void
test_random_crowd(void)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(20261205);
	guint held[MAPPING_SLOTS_N] = { 0 }; /* the model: tracker id per slot */
	guint next_id = 1, max_seen = 0;
	Crowd crowd = { 0 };
	MappingSlots slots;

	mapping_slots_init(&slots);
	for (guint frame = 0; frame < 5000; frame++) {
		gboolean freed[MAPPING_SLOTS_N] = { FALSE };
		guint seen = 0;

		crowd_step(rand, &crowd, &next_id);
		update(&slots, crowd.ids);
		for (guint s = 0; s < MAPPING_SLOTS_N; s++) {
			gboolean here = FALSE;

			for (guint i = 0; i < crowd.n; i++)
				here |= crowd.ids[i] == held[s];
			freed[s] = held[s] != 0 && !here;
			if (freed[s])
				held[s] = 0;
		}
		for (guint i = 0; i < crowd.n; i++) {
			guint id = crowd.ids[i], slot = 0;

			for (guint s = 0; s < MAPPING_SLOTS_N; s++)
				slot = held[s] == id ? s + 1 : slot;
			if (slot == 0) {
				slot = model_newcomer_slot(held, freed);
				held[slot - 1] = id;
			}
			g_assert_cmpuint(mapping_slots_get(&slots, id), ==, slot);
			g_assert_false(seen & (1u << slot));
			seen |= 1u << slot;
		}
		max_seen = MAX(max_seen, crowd.n);
	}
	/* The walk went through full rooms and many users. */
	g_assert_cmpuint(max_seen, ==, MAPPING_SLOTS_N);
	g_assert_cmpuint(next_id, >, 500);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mapping/slots/first-seen-in-frame-order", test_first_seen_in_frame_order);
	g_test_add_func("/mapping/slots/lowest-free-reused", test_lowest_free_reused);
	g_test_add_func("/mapping/slots/six-at-once", test_six_at_once);
	g_test_add_func("/mapping/slots/returning-user-takes-lowest-free",
	                test_returning_user_takes_lowest_free);
	g_test_add_func("/mapping/slots/not-given-again-the-frame-it-is-freed",
	                test_not_given_again_the_frame_it_is_freed);
	g_test_add_func("/mapping/slots/full-house-takes-the-freed-slot", test_full_house);
	g_test_add_func("/mapping/slots/left-slot-answers-until-taken",
	                test_left_slot_answers_until_taken);
	g_test_add_func("/mapping/slots/random-crowd-follows-the-rule", test_random_crowd);
	return g_test_run();
}
