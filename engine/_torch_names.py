"""The names PyTorch's modules list in dir() that the engine's lack, and the engine's own helpers they do not: Python's
"Did you mean: '...'?" for a mistyped attribute (`torch.nn.Linaer`, `optim.Sgd`) picks the nearest name dir() offers,
so each public module's dir() is PyTorch's (see _missing_attributes_named_as_torch in __init__.py)."""

# module (as torch names it): (names only PyTorch has, names only the engine has)
NAMES = {
    'torch.nn': ("""
        AdaptiveLogSoftmaxWithLoss CTCLoss ChannelShuffle Container DataParallel EmbeddingBag FeatureAlphaDropout
        FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d LPPool3d LazyConvTranspose1d LazyConvTranspose2d
        LazyConvTranspose3d LinearCrossEntropyLoss LinearCrossEntropyOptions MaxUnpool1d MaxUnpool2d MaxUnpool3d
        NLLLoss2d SyncBatchNorm _reduction attention common_types factory_kwargs grad intrinsic parallel qat
        quantizable quantized""",
        """
        F Iterable Mapping OptimizedModule OrderedDict Tensor _BatchNorm _ConstantPadNd _ConvNd _DictMethods
        _DropoutNd _Elementwise _IncompatibleKeys _Init _InplaceActivation _InstanceNorm _LazyConvNd _LazyNormBase
        _Loss _MaxPoolNd _ModuleSequence _AvgPoolNd _NormBase _NumberActivation _Numbered _WeightedLoss __dir__
        __getattr__ _add_weight_and_bias _addindent _affine_parameters _as_parameter _attention _backward_hooks
        _drawn_ _dtypes _empty _factories _fan _fans _fill_ _fn _legacy_reduction _make_deprecate _modules_package
        _name _names _ntuple _ops_rnn _pad _pairs _param_line _reset_affine _typename _views_changed _vision _where
        _zero_grad ag empty empty_like math namedtuple np operator randperm sys types user_stacklevel warnings where
        _ENGINE_MODULE_NAMES _TORCH_MODULE_NAMES _deprecated_class _tuple_parser
        consume_prefix_in_state_dict_if_present functools numbers _AdaptiveAvgPoolNd _has_uninitialized_params
        _CrossMapLRN2d _cross_map_lrn2d"""),
    'torch.nn.functional': ("""
        BroadcastingList1 BroadcastingList2 BroadcastingList3 Callable DType GRID_SAMPLE_INTERPOLATION_MODES
        GRID_SAMPLE_PADDING_MODES Optional ScalingType SwizzleType TYPE_CHECKING _Any _Reduction _VF
        _adaptive_max_pool1d _adaptive_max_pool2d _adaptive_max_pool3d _add_docstr _check_key_padding_mask
        _check_unpool_output_size _enum_list_as_int_list _expand_single_value _fractional_max_pool2d
        _fractional_max_pool3d _get_softmax_dim _in_projection _in_projection_packed _is_integer _jit_unused
        _list_or_empty _list_with_default _max_pool1d _max_pool2d _max_pool3d _mha_shape_check
        _no_grad_embedding_renorm_ _overload _pair _single _sym_int _triple _unpool_output_size _verify_spatial_size
        affine_grid assert_int_or_pair boolean_dispatch channel_shuffle conv_tbc ctc_loss dataclasses embedding_bag
        feature_alpha_dropout fractional_max_pool2d fractional_max_pool2d_with_indices fractional_max_pool3d
        fractional_max_pool3d_with_indices grad grid_sample grouped_mm handle_torch_function has_torch_function
        has_torch_function_unary has_torch_function_variadic importlib linear_cross_entropy lp_pool1d lp_pool2d
        lp_pool3d max_unpool1d max_unpool2d max_unpool3d native_channel_shuffle pdist reproducibility_notes
        scaled_grouped_mm scaled_mm sparse_support_notes tf32_notes torch""",
        """
        _RRELU_SIGNATURE __dir__ __getattr__ _alpha_dropout _apply_loss_reduction _argparse _autograd _dropout_mask
        _factories _feature_dropout _implicit_dim _leaky_relu _loss_reduction _name _ops _ops_conv _ops_math _ops_nn
        _ops_nn2 _parse _parser_type _random _renorm_rows _rrelu_args _rrelu_bound _rrelu_call _tensor_input
        _torch_rrelu _unbatched_feature_dropout _warn_feature_dropout_dims logsumexp make _triplet_distances"""),
    'torch.autograd': ("""
        DeviceType NestedIOFunction ProfilerActivity ProfilerConfig ProfilerEvent ProfilerState SavedTensor Sequence
        _KinetoEvent _OptionalTensor _ProfilerResult _ShapeorNestedShape _TensorOrOptionalTensors
        _TensorOrTensorsOrGradEdge _add_metadata_json _calculate_shape _disable_profiler _disable_profiler_legacy
        _enable_profiler _enable_profiler_legacy _enable_record_function _engine_run_backward
        _force_original_view_tracking _get_sequence_nr _is_checkpoint_valid _is_kineto_stopped _kineto_step
        _pop_saved_tensors_default_hooks _prepare_profiler _profiler_enabled _push_saved_tensors_default_hooks
        _record_function_with_args_enter _record_function_with_args_exit _register_py_tensor_class_for_device
        _set_empty_test_observer _size _supported_activities _tensor_or_tensors_to_tuple _toggle_collection_dynamic
        _unsafe_preserve_version_counter _vmap_internals cast enforce_grad_layout_policy forward_ad
        handle_torch_function has_torch_function is_multithreading_enabled is_tensor_like is_view_replay_enabled
        kineto_available overload profiler profiler_legacy profiler_util set_multithreading_enabled torch""",
        """
        GradientEdge NamedTuple Node Optional Tensor VariableMeta _CREATE_GRAPH_WARNING _Package __dir__ __getattr__
        _ag _batched_grad _check_input _check_roots _flag _gradcheck _make _submodule _tensor _tuple
        _watch_inference_grads get_gradient_edge is_anomaly_check_nan_enabled is_anomaly_enabled np operator
        set_anomaly_enabled sys types"""),
    'torch.optim': ("""
        Adafactor Muon SparseAdam __all__ _adafactor _functional _muon _stateless swa_utils
        swap_in_optimizer_params_and_state""",
        """
        Tensor __dir__ __getattr__ _add_ _add_scaled _addcdiv_ _average_square_ _bump _check _check_below
        _check_betas _check_fused _check_lr _cls _count_writes _cubic_minimum _file_module _fma _grad _lerp_
        _next_step _number _start _strong_wolfe _typename _views_changed _where _zero_grad ag defaultdict make math
        mul np sys types warnings _ENGINE_OPTIMIZER_NAMES _TORCH_OPTIMIZER_NAMES adadelta adagrad adam adamax adamw
        asgd lbfgs nadam optimizer radam rmsprop rprop sgd OrderedDict _add_hook _global_optimizer_post_hooks
        _global_optimizer_pre_hooks _hooked_step _or _register_optimizer_step_post_hook
        _register_optimizer_step_pre_hook chain wraps"""),
    'torch.nn.init': ("""
        Callable Literal ParamSpec Tensor TypeVar _FanMode _NonlinearityType _P _R __all__ __builtins__ __cached__
        __file__ _make_deprecate _no_grad_fill_ _no_grad_normal_ _no_grad_trunc_normal_ _no_grad_uniform_
        _no_grad_zero_ math torch warnings""",
        """
        __dir__ __getattr__"""),
    'torch.linalg': ("""
        __path__ _add_docstr _linalg _powsum common_notes cond eig eigvals householder_product ldl_factor
        ldl_factor_ex ldl_solve lstsq matrix_exp matrix_rank pinv""",
        """
        Tensor __dir__ __getattr__ _check_dtype _check_float _norm _over_last_two _wrap_dim dt math _chain_matmul
        _write_out warn_once"""),
    'torch.optim.lr_scheduler': ("""
        Any Literal Self SupportsFloat TYPE_CHECKING TypedDict _SchedulePhase __all__ _enable_get_lr_call
        _initial_mode _param_groups_val_list _to_scalar _update_param_group_val _warn_get_lr_called_within_step
        annotations cast inf override ref""",
        """
        _LambdaState _ORDER _OVERRIDDEN _Schedulers __dir__ __getattr__ _check_optimizer _cls _count_steps
        _init_momentum _lambdas _set _set_momentum _values sys weakref"""),
    'torch.utils.data': ("""
        DFIterDataPipe DataChunk DistributedSampler IterDataPipe MapDataPipe _DatasetKind __all__ _utils
        argument_validation datapipes distributed functional_datapipe get_worker_info graph graph_settings
        guaranteed_datapipes_determinism non_deterministic runtime_validation runtime_validation_disabled""",
        """
        Tensor _SingleProcessDataLoaderIter __dir__ __getattr__ _dict_like _factories _fetch _file_modules
        _int64_draw _positive bisect copy dt itertools math multinomial np numbers stack sys types warnings"""),
    'torch.nn.utils': ("""
        __all__ _named_member_accessor clip_grad convert_conv2d_weight_memory_format
        convert_conv3d_weight_memory_format convert_parameters fuse_conv_bn_eval fuse_conv_bn_weights
        fuse_linear_bn_eval fuse_linear_bn_weights fusion init memory_format parametrizations parametrize
        remove_spectral_norm remove_weight_norm skip_init spectral_norm stateless weight_norm""",
        """
        Tensor WeightNorm __dir__ __getattr__ _as_list _factories ag cat stack types warnings"""),
}
