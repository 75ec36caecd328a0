import { type ModelPrice, ModelRefSchema, type PriceInput, PriceInputSchema } from '@assistente/contracts';
import { Autocomplete, NumberInput, Text } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useSetPrice } from '../hooks/useUsage.ts';

type Amount = number | '';

/**
 * Sets a model's price from now on (earlier calls keep theirs): a model typed or picked, per 1M
 * tokens, and per image for an image model.
 */
export function PriceDialog({
  opened,
  price,
  models,
  initialModel,
  onClose,
  onSaved,
}: {
  opened: boolean;
  /** The price in force to change; null prices a model. */
  price: ModelPrice | null;
  /** `provider:model` ids to offer (the providers' models). */
  models: readonly string[];
  /** A model to price, picked from the unpriced ones. */
  initialModel?: string | undefined;
  onClose: () => void;
  onSaved: (price: ModelPrice) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear, fail } = useSubmitFailure();
  const save = useSetPrice();
  const [model, setModel] = useState('');
  const [input, setInput] = useState<Amount>('');
  const [output, setOutput] = useState<Amount>('');
  const [cached, setCached] = useState<Amount>('');
  const [perImage, setPerImage] = useState<Amount>('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setModel(price?.model ?? initialModel ?? '');
    setInput(price?.inputPerMillion ?? '');
    setOutput(price?.outputPerMillion ?? '');
    setCached(price?.cachedInputPerMillion ?? '');
    setPerImage(price?.perImage ?? '');
    setProblem(null);
    clear();
  }, [opened, price, initialModel, clear]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!ModelRefSchema.safeParse(model.trim()).success) return setProblem(t('usage.prices.problems.model'));
    const body: PriceInput = {
      inputPerMillion: input === '' ? Number.NaN : input,
      outputPerMillion: output === '' ? Number.NaN : output,
      ...(cached === '' ? {} : { cachedInputPerMillion: cached }),
      ...(perImage === '' ? {} : { perImage }),
      currency: 'USD',
    };
    if (!PriceInputSchema.safeParse(body).success) return setProblem(t('usage.prices.problems.amounts'));
    setProblem(null);
    try {
      onSaved(await save.mutateAsync({ model: model.trim(), body }));
    } catch (error) {
      fail(error);
    }
  };

  const amount = (
    label: string,
    value: Amount,
    set: (v: Amount) => void,
    testId: string,
    { required = true, description }: { required?: boolean; description?: string } = {},
  ) => (
    <NumberInput
      label={label}
      description={description}
      required={required}
      prefix="US$ "
      min={0}
      max={1_000_000}
      decimalScale={6}
      value={value}
      onChange={(v) => set(typeof v === 'number' ? v : '')}
      data-testid={testId}
    />
  );

  return (
    <FormDialog
      opened={opened}
      title={t(price ? 'usage.prices.edit_title' : 'usage.prices.create_title')}
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      failure={failure}
      submitLabel={t('common.save')}
    >
      <Text size="sm" c="dimmed">
        {t('usage.prices.dialog_hint')}
      </Text>
      <Autocomplete
        label={t('usage.prices.fields.model')}
        description={t('usage.prices.fields.model_hint')}
        required
        disabled={price !== null}
        data={[...models]}
        value={model}
        onChange={setModel}
        data-testid="price-model"
        data-autofocus
      />
      {amount(t('usage.prices.fields.input'), input, setInput, 'price-input')}
      {amount(t('usage.prices.fields.output'), output, setOutput, 'price-output')}
      {amount(t('usage.prices.fields.cached'), cached, setCached, 'price-cached', { required: false })}
      {amount(t('usage.prices.fields.per_image'), perImage, setPerImage, 'price-per-image', {
        required: false,
        description: t('usage.prices.fields.per_image_hint'),
      })}
      {problem ? (
        <Text size="sm" c="red" role="alert" data-testid="price-problem">
          {problem}
        </Text>
      ) : null}
    </FormDialog>
  );
}
