#include "message.h"

#include <string.h>

MessageBatch *
message_batch_new(void)
{
	MessageBatch *batch = g_new0(MessageBatch, 1);

	batch->messages = g_array_new(FALSE, FALSE, sizeof(Message));
	batch->args = g_array_new(FALSE, FALSE, sizeof(MessageArg));
	batch->text = g_string_new(NULL);
	return batch;
}

void
message_batch_free(MessageBatch *batch)
{
	if (batch == NULL)
		return;
	g_array_unref(batch->messages);
	g_array_unref(batch->args);
	g_string_free(batch->text, TRUE);
	g_free(batch);
}

void
message_batch_clear(MessageBatch *batch)
{
	g_array_set_size(batch->messages, 0);
	g_array_set_size(batch->args, 0);
	g_string_truncate(batch->text, 0);
}

/* Strings live in one buffer, so they are stored by offset: the buffer
 * moves when it grows. */
static guint
message_batch_intern(MessageBatch *batch, const char *text)
{
	guint offset = batch->text->len;

	g_string_append_len(batch->text, text, (gssize)strlen(text) + 1);
	return offset;
}

void
message_batch_add(MessageBatch *batch, guint user, const char *address)
{
	Message message = { 0 };

	message.address = message_batch_intern(batch, address);
	message.first_arg = batch->args->len;
	message.user = user;
	g_array_append_val(batch->messages, message);
}

static void
message_batch_append_arg(MessageBatch *batch, const MessageArg *arg)
{
	g_return_if_fail(batch->messages->len > 0);

	g_array_append_val(batch->args, *arg);
	g_array_index(batch->messages, Message, batch->messages->len - 1).n_args++;
}

void
message_batch_add_int32(MessageBatch *batch, gint32 value)
{
	MessageArg arg = { .type = MESSAGE_ARG_INT32, .i = value };

	message_batch_append_arg(batch, &arg);
}

void
message_batch_add_float32(MessageBatch *batch, float value)
{
	MessageArg arg = { .type = MESSAGE_ARG_FLOAT32, .f = value };

	message_batch_append_arg(batch, &arg);
}

void
message_batch_add_string(MessageBatch *batch, const char *value)
{
	MessageArg arg = { .type = MESSAGE_ARG_STRING };

	arg.s = message_batch_intern(batch, value);
	message_batch_append_arg(batch, &arg);
}

char *
message_types(const MessageBatch *batch, const Message *message)
{
	GString *types = g_string_new(",");

	for (guint k = 0; k < message->n_args; k++)
		g_string_append_c(types, (char)message_arg(batch, message, k)->type);
	return g_string_free(types, FALSE);
}

static gsize
message_padded(gsize bytes)
{
	return (bytes + 3) & ~(gsize)3;
}

gsize
message_osc_size(const MessageBatch *batch, const Message *message)
{
	/* The type tags: ',' then one per argument, then a zero. */
	gsize size = message_padded(strlen(message_address(batch, message)) + 1) +
	             message_padded(message->n_args + 2);

	for (guint k = 0; k < message->n_args; k++) {
		const MessageArg *arg = message_arg(batch, message, k);

		size += arg->type == MESSAGE_ARG_STRING
		                ? message_padded(strlen(message_arg_string(batch, arg)) + 1)
		                : 4;
	}
	return size;
}
